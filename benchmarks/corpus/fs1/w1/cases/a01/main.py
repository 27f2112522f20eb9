import compat  # noqa: F401
import torch
import torch.nn.functional as F
import torchvision

from cam import METHODS

CONFIG = {
    "arch": "densenet121",
    "num_classes": 10,
    "image_size": 64,
    "batch_size": 2,
    "method": "gradcam",
    "target_layer": "features",
}


def build_model(cfg):
    builder = getattr(torchvision.models, cfg["arch"])
    model = builder(weights=None, num_classes=cfg["num_classes"])
    return model.eval()


def overlay(images, cams):
    cams = F.interpolate(cams.unsqueeze(1), size=images.shape[-2:], mode="bilinear",
                         align_corners=False)
    return 0.5 * images + 0.5 * cams


def main(cfg):
    torch.manual_seed(0)
    model = build_model(cfg)
    extractor = METHODS[cfg["method"]](model, cfg["target_layer"])
    images = torch.rand(cfg["batch_size"], 3, cfg["image_size"], cfg["image_size"])
    cams, classes = extractor(images)
    blended = overlay(images, cams)
    extractor.remove()
    print("classes:", classes.tolist(), "cam range:", float(cams.min()), float(cams.max()))
    print("overlay:", tuple(blended.shape))


if __name__ == "__main__":
    main(CONFIG)
