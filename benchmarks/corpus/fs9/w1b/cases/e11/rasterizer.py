import math
from typing import NamedTuple

import torch


class GaussianRasterizationSettings(NamedTuple):
    image_height: int
    image_width: int
    tanfovx: float
    tanfovy: float
    bg: torch.Tensor
    scale_modifier: float
    viewmatrix: torch.Tensor


def _splat_surfels(means3D, colors, opacities, scales, rotations, settings):
    H, W = settings.image_height, settings.image_width
    fx = W / (2 * settings.tanfovx)
    fy = H / (2 * settings.tanfovy)
    pts = torch.cat([means3D, torch.ones_like(means3D[:, :1])], dim=1) @ settings.viewmatrix.t()
    z = pts[:, 2].clamp(min=0.2)
    u = pts[:, 0] / z * fx + W / 2
    v = pts[:, 1] / z * fy + H / 2
    q = rotations / rotations.norm(dim=-1, keepdim=True)
    theta = 2 * torch.atan2(q[:, 3], q[:, 0])
    su = scales[:, 0] * settings.scale_modifier * fx / z
    sv = scales[:, 1] * settings.scale_modifier * fy / z
    ys, xs = torch.meshgrid(torch.arange(H, dtype=means3D.dtype) + 0.5,
                            torch.arange(W, dtype=means3D.dtype) + 0.5, indexing="ij")
    dx = xs[None] - u[:, None, None]
    dy = ys[None] - v[:, None, None]
    c, s = torch.cos(theta)[:, None, None], torch.sin(theta)[:, None, None]
    a = (c * dx + s * dy) / su[:, None, None]
    b = (-s * dx + c * dy) / sv[:, None, None]
    alpha = (opacities[:, 0, None, None] * torch.exp(-0.5 * (a * a + b * b))).clamp(max=0.99)
    order = torch.argsort(z)
    alpha, colors = alpha[order], colors[order]
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:1]), 1 - alpha[:-1]], dim=0), dim=0)
    weights = alpha * trans
    image = torch.einsum("nhw,nc->chw", weights, colors)
    image = image + settings.bg[:, None, None] * (1 - weights.sum(0))[None]
    return image


class _RasterizeGaussians(torch.autograd.Function):
    @staticmethod
    def forward(ctx, means3D, means2D, colors_precomp, opacities, rotations, scales, raster_settings):
        with torch.enable_grad():
            leaves = [means3D.detach().requires_grad_(), colors_precomp.detach().requires_grad_(),
                      opacities.detach().requires_grad_(), rotations.detach().requires_grad_(),
                      scales[:, :2].detach().requires_grad_()]
            image = _splat_surfels(leaves[0], leaves[1], leaves[2], leaves[4], leaves[3], raster_settings)
        ctx.leaves = leaves
        ctx.image = image
        return image.detach()

    @staticmethod
    def backward(ctx, grad_out):
        g_means3D, g_colors, g_opac, g_rot, g_scales = torch.autograd.grad(ctx.image, ctx.leaves, grad_out)
        g_means2D = torch.zeros(g_means3D.shape[0], 3, dtype=grad_out.dtype)
        return g_means3D, g_means2D, g_colors, g_opac, g_rot, g_scales, None


def rasterize_gaussians(means3D, means2D, colors_precomp, opacities, rotations, scales, raster_settings):
    return _RasterizeGaussians.apply(means3D, means2D, colors_precomp, opacities,
                                     rotations, scales, raster_settings)
