"""The lab: what makes and checks the product, never shipped with it.

The synthetic world (``render``: still scenes, ``videos``: whole rendered games), the
training recipe (``training``), the real-data loaders (``realdata``) and the engine's
exactness checks (``exactness``). The lab imports the installed product (``makhos.*``);
the product never imports the lab.
"""
