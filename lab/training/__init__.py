"""The recipe that trains the square classifier: data from the renderer (and the shared real
photos, where present), the network, training, the head's refit, the evaluation."""
