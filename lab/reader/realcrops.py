"""Crops of the shared real photos (``../shared/realdata``), one file per set, for training
and the bench. Nothing here enters the repository: the files go to a scratch folder.

Each board is stored as one JPEG mosaic of its 32 crops (8 x 4 tiles), so that all six sets
fit the GPU machine's carry limit; the bench re-cuts crops from the photos themselves.

    python -m lab.reader.realcrops --out /tmp/reader-data
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from lab.realdata import RealPhoto, collections, photo_geometry
from makhos.vision.reader import GEOMETRY
from makhos.vision.rectify import SquareCrops, crop_squares


def photo_crops(photo: RealPhoto, image: np.ndarray) -> tuple[SquareCrops, str]:
    """The photo's 32 crops in the reader's geometry and their true labels."""
    corners, lens, labels = photo_geometry(photo, image)
    return crop_squares(image, corners, "dark", geometry=GEOMETRY, lens=lens), labels


def mosaic(images: np.ndarray) -> np.ndarray:
    """(32, h, w, 3) -> (4h, 8w, 3)."""
    n, h, w, c = images.shape
    return images.reshape(4, 8, h, w, c).transpose(0, 2, 1, 3, 4).reshape(4 * h, 8 * w, c)


def unmosaic(image: np.ndarray, h: int, w: int) -> np.ndarray:
    """(4h, 8w, 3) -> (32, h, w, 3)."""
    return image.reshape(4, h, 8, w, 3).transpose(0, 2, 1, 3, 4).reshape(32, h, w, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--quality", type=int, default=93)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, photos in collections().items():
        jpegs, sights, labels, setups, starts, names = [], [], [], [], [], []
        for photo in photos:
            crops, truth = photo_crops(photo, photo.image())
            ok, buf = cv2.imencode(".jpg", mosaic(crops.images),
                                   [cv2.IMWRITE_JPEG_QUALITY, args.quality])
            assert ok
            jpegs.append(np.frombuffer(buf.tobytes(), np.uint8))
            sights.append(crops.sight)
            labels.append(truth)
            setups.append(photo.setup)
            starts.append(photo.start_side())
            names.append(photo.path.name)
        offsets = np.cumsum([0] + [len(j) for j in jpegs])
        np.savez(args.out / f"real-{name}.npz", jpeg=np.concatenate(jpegs), offsets=offsets,
                 sight=np.stack(sights), labels=np.array(labels), setup=np.array(setups),
                 start=np.array(starts), name=np.array(names))
        print(name, len(photos), "boards", f"{offsets[-1] / 1e6:.1f} MB", flush=True)


if __name__ == "__main__":
    main()
