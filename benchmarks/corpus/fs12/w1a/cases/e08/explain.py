import torch

from cams import GradCAM, XGradCAM
from net import SmallResNet


def overlay_stats(cam):
    return f"mean={cam.mean().item():.3f} peak=({int(cam.flatten().argmax()) // cam.shape[-1]},{int(cam.flatten().argmax()) % cam.shape[-1]})"


def main():
    torch.manual_seed(0)
    model = SmallResNet().eval()
    images = torch.rand(2, 3, 64, 64)
    methods = {}
    methods["gradcam"] = GradCAM(model, input_shape=(3, 64, 64))
    methods["xgradcam"] = XGradCAM(model, input_shape=(3, 64, 64))
    for name, extractor in methods.items():
        scores = model(images)
        class_idx = scores.argmax(1).tolist()
        cams = extractor(class_idx, scores)
        for i, cam in enumerate(cams[0]):
            print(f"{name} image{i} class={class_idx[i]} {overlay_stats(cam)}")


if __name__ == "__main__":
    main()
