import torch

from gaussian_model import GaussianModel
from render import render

OPT = {
    "iterations": 5,
    "position_lr": 1.6e-4,
    "feature_lr": 2.5e-3,
    "opacity_lr": 5e-2,
    "scaling_lr": 5e-3,
    "rotation_lr": 1e-3,
    "lambda_dssim": 0.2,
}


def make_camera(i):
    view = torch.eye(4)
    view[0, 3] = 0.05 * i
    view[2, 3] = 3.0
    return {"height": 32, "width": 32, "fovx": 0.9, "fovy": 0.9, "world_view_transform": view}


def training(opt):
    torch.manual_seed(0)
    points = torch.randn(64, 3) * 0.5
    colors = torch.rand(64, 3)
    gaussians = GaussianModel()
    gaussians.create_from_pcd(points, colors)
    gaussians.training_setup(opt)
    background = torch.zeros(3)
    gt_images = [torch.rand(3, 32, 32) for _ in range(4)]

    for iteration in range(1, opt["iterations"] + 1):
        idx = iteration % len(gt_images)
        pkg = render(make_camera(idx), gaussians, background)
        image = pkg["render"]
        loss = (image - gt_images[idx]).abs().mean()
        loss.backward()
        gaussians.optimizer.step()
        gaussians.optimizer.zero_grad(set_to_none=True)
        print(f"[ITER {iteration}] loss {loss.item():.5f}")


if __name__ == "__main__":
    training(OPT)
