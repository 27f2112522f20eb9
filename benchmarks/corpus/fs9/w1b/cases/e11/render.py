import math

import torch

from rasterizer import GaussianRasterizationSettings, rasterize_gaussians


def render(camera, pc, bg_color, scaling_modifier=1.0):
    screenspace_points = torch.zeros_like(pc.get_xyz, requires_grad=True)
    settings = GaussianRasterizationSettings(
        image_height=camera["height"],
        image_width=camera["width"],
        tanfovx=math.tan(camera["fovx"] * 0.5),
        tanfovy=math.tan(camera["fovy"] * 0.5),
        bg=bg_color,
        scale_modifier=scaling_modifier,
        viewmatrix=camera["world_view_transform"],
    )
    image = rasterize_gaussians(
        means3D=pc.get_xyz,
        means2D=screenspace_points,
        colors_precomp=pc.get_colors,
        opacities=pc.get_opacity,
        rotations=pc.get_rotation,
        scales=pc.get_scaling,
        raster_settings=settings,
    )
    return {"render": image, "viewspace_points": screenspace_points}
