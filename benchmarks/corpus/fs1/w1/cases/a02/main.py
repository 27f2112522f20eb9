import compat  # noqa: F401
import torch
import torchvision

from extractor import SmoothGradCAMpp


def load_classifier(num_classes):
    model = torchvision.models.resnet18(weights=None, num_classes=num_classes)
    model.eval()
    return model


def evaluate_with_cams(model, cam_extractor, loader):
    maps = []
    correct = 0
    with torch.no_grad():
        for images, labels in loader:
            scores = model(images)
            correct += (scores.argmax(1) == labels).sum().item()
            maps.append(cam_extractor(images, scores))
    return correct, torch.cat(maps)


def main():
    torch.manual_seed(0)
    model = load_classifier(num_classes=5)
    cam_extractor = SmoothGradCAMpp(model, target_layer=model.layer4[-1])
    loader = [(torch.rand(2, 3, 48, 48), torch.randint(0, 5, (2,))) for _ in range(2)]
    correct, maps = evaluate_with_cams(model, cam_extractor, loader)
    cam_extractor.remove_hooks()
    print(f"accuracy {correct / 4:.2f}, cams {tuple(maps.shape)}")


if __name__ == "__main__":
    main()
