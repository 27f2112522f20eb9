import torch
import torch.nn as nn
import torch.nn.functional as F


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x, y):
        diff = x - y
        return torch.mean(torch.sqrt(diff * diff + self.eps * self.eps))


class EdgeLoss(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.tensor([[0.05, 0.25, 0.4, 0.25, 0.05]])
        kernel = torch.matmul(k.t(), k).unsqueeze(0).repeat(3, 1, 1, 1)
        self.register_buffer("kernel", kernel)
        self.loss = CharbonnierLoss()

    def conv_gauss(self, img):
        img = F.pad(img, (2, 2, 2, 2), mode="replicate")
        return F.conv2d(img, self.kernel, groups=img.shape[1])

    def laplacian_kernel(self, current):
        filtered = self.conv_gauss(current)
        down = filtered[:, :, ::2, ::2]
        new_filter = torch.zeros_like(filtered)
        new_filter[:, :, ::2, ::2] = down * 4
        filtered = self.conv_gauss(new_filter)
        return current - filtered

    def forward(self, x, y):
        return self.loss(self.laplacian_kernel(x), self.laplacian_kernel(y))


class StageLoss(nn.Module):
    def __init__(self, edge_weight=0.05):
        super().__init__()
        self.char = CharbonnierLoss()
        self.edge = EdgeLoss()
        self.edge_weight = edge_weight

    def forward(self, restored, target):
        per_stage = [self.char(r, target) + self.edge_weight * self.edge(r, target) for r in restored]
        return torch.tensor(per_stage, requires_grad=True).sum()
