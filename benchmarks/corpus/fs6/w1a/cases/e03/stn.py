import torch
import torch.nn.functional as F


def _meshgrid(height, width):
    y_t, x_t = torch.meshgrid(
        torch.linspace(-1.0, 1.0, height), torch.linspace(-1.0, 1.0, width), indexing="ij"
    )
    ones = torch.ones_like(x_t)
    return torch.stack([x_t.reshape(-1), y_t.reshape(-1), ones.reshape(-1)], dim=0)


def params_to_homography(params):
    bs = params.shape[0]
    eye = torch.eye(3).reshape(1, 9)[:, :8].expand(bs, -1)
    h8 = eye + params
    return torch.cat([h8, torch.ones(bs, 1)], dim=1).reshape(bs, 3, 3)


def warp(image, H):
    """Warp image (bs, c, h, w) with homographies H (bs, 3, 3) on the normalised grid."""
    bs, nc, height, width = image.shape
    grid = _meshgrid(height, width).unsqueeze(0).expand(bs, -1, -1)

    T_g = torch.bmm(H, grid)
    x_s, y_s, t_s = torch.chunk(T_g, 3, dim=1)

    t_s_flat = t_s.reshape(-1)
    eps = 1e-2
    t_s_flat[t_s_flat.abs() < eps] = eps

    x_s_flat = x_s.reshape(-1) / t_s_flat
    y_s_flat = y_s.reshape(-1) / t_s_flat

    sample_grid = torch.stack([x_s_flat, y_s_flat], dim=-1).reshape(bs, height, width, 2)
    return F.grid_sample(image, sample_grid, align_corners=True, padding_mode="zeros")
