import torch

for _name in ("nms", "qnms"):
    if not hasattr(torch.ops.torchvision, _name):
        torch.library.define(f"torchvision::{_name}",
                             "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
