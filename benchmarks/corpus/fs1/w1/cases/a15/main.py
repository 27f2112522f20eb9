import compat  # noqa: F401
import timm
import torch

from saliency import ScoreCAM, vanilla_gradient
from utils import apply_transforms, basic_visualize


def main():
    torch.manual_seed(0)
    model = timm.create_model("test_resnet", pretrained=False, num_classes=10).eval()
    image = torch.rand(3, 80, 80)
    input_ = apply_transforms(image)

    scorecam = ScoreCAM(model, target_layer=model.layer4)
    scorecam_map, class_idx = scorecam(input_)
    grad_map = vanilla_gradient(model, input_, class_idx)

    panels = [basic_visualize(input_, scorecam_map), basic_visualize(input_, grad_map)]
    print("class", class_idx, "panels", [tuple(p.shape) for p in panels])


if __name__ == "__main__":
    main()
