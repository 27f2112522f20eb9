import torch
import torch.nn.functional as F

from common import chamfer


class AllLosses:
    def __init__(self, opt):
        self.opt = opt
        self.loss = {}

    def mvc_reg_loss(self, weights):
        return (F.relu(-weights) ** 2).sum(dim=-1).mean() + ((weights.sum(dim=-1) - 1) ** 2).mean()

    def __call__(self, all_inputs, all_outputs):
        self.loss = {}
        self.loss["CD"] = chamfer(all_outputs["deformed"], all_inputs["target_shape"]) * self.opt["cd_weight"]
        self.loss["CAGE"] = (all_outputs["new_cage"] - all_outputs["cage"]).pow(2).mean() * self.opt["cage_weight"]
        self.loss["WREG"] = self.mvc_reg_loss(all_outputs["weight"]) * self.opt["mvc_weight"]
        return self.loss
