import compat  # noqa: F401
import torch
from torchvision.models import resnet18

from gradcam import GradCAM


def main():
    torch.manual_seed(0)
    model = resnet18(weights=None, num_classes=10)
    model.eval()
    cam = GradCAM(model, model.layer4[-1])
    images = torch.randn(4, 3, 32, 32)
    heatmaps, logits = cam(images)
    cam.remove()
    print("pred", logits.argmax(1).tolist())
    print("cam", tuple(heatmaps.shape), f"min {heatmaps.min().item():.3f} max {heatmaps.max().item():.3f}")

    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    labels = torch.randint(0, 10, (4,))
    for _ in range(2):
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(images), labels)
        loss.backward()
        optimizer.step()
    print(f"loss {loss.item():.4f}")
    return model, heatmaps


if __name__ == "__main__":
    model, heatmaps = main()
