import torch


class TVLoss(torch.nn.Module):
    def forward(self, x):
        dh = (x[:, :, 1:, :] - x[:, :, :-1, :]).abs().mean()
        dw = (x[:, :, :, 1:] - x[:, :, :, :-1]).abs().mean()
        return dh + dw


def exposure_score(images, target=0.5, patch=4):
    mean = torch.nn.functional.avg_pool2d(images.mean(dim=1, keepdim=True), patch)
    return -(mean - target).abs()
