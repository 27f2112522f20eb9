import torch
import torch.nn.functional as F

from model import TwoViewLPN
from opts import OPTS
from utils import load_network, save_network


def fake_image(h, w):
    img = torch.rand(3, h, w)
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    return ((img - mean) / std).unsqueeze(0)


def draw_CAM(model, img, part=0):
    branch = model.model_1
    grads = []

    def extract(g):
        grads.append(g)

    features = branch.model.forward_features(img)
    parts = branch.get_part_pool(features)
    output = branch.classifiers[part](parts[:, :, part])
    features.register_hook(extract)
    pred = output.argmax(dim=1).item()
    output[0, pred].backward()

    weights = grads[0].mean(dim=(2, 3), keepdim=True)
    cam = F.relu((weights * features).sum(dim=1, keepdim=True))
    cam = F.interpolate(cam, size=img.shape[-2:], mode="bilinear", align_corners=False)
    cam = (cam - cam.min()) / (cam.max() - cam.min() + 1e-8)
    return cam.detach()[0, 0]


def main():
    torch.manual_seed(0)
    trained = TwoViewLPN(OPTS)
    checkpoint = save_network(trained)
    model = load_network(checkpoint)
    for k in range(OPTS["block"]):
        heatmap = draw_CAM(model, fake_image(OPTS["h"], OPTS["w"]), part=k)
        print(f"part {k}: heatmap mean {heatmap.mean().item():.3f}")


if __name__ == "__main__":
    main()
