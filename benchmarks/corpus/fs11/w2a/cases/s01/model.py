import torch
from torch import nn


class MeanVFE(nn.Module):
    def __init__(self, num_point_features):
        super().__init__()
        self.num_point_features = num_point_features

    def forward(self, batch_dict):
        voxels, num_points = batch_dict["voxels"], batch_dict["voxel_num_points"]
        feats = voxels.sum(dim=1) / num_points.clamp(min=1).unsqueeze(-1).float()
        batch_dict["voxel_features"] = feats
        return batch_dict


class VoxelBackBone8x(nn.Module):
    def __init__(self, input_channels, out_channels=32):
        super().__init__()
        self.conv_input = nn.Sequential(
            nn.Linear(input_channels, 16, bias=False), nn.BatchNorm1d(16), nn.ReLU())
        self.conv1 = nn.Sequential(nn.Linear(16, 32, bias=False), nn.BatchNorm1d(32), nn.ReLU())
        self.conv_out = nn.Sequential(
            nn.Linear(32, out_channels, bias=False), nn.BatchNorm1d(out_channels), nn.ReLU())
        self.num_point_features = out_channels

    def forward(self, batch_dict):
        with torch.no_grad():
            x = self.conv_input(batch_dict["voxel_features"])
            x = self.conv1(x)
            x = self.conv_out(x)
        batch_dict["encoded_spconv_tensor"] = x
        return batch_dict


class AnchorHeadSingle(nn.Module):
    def __init__(self, input_channels, num_class, code_size=7):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(input_channels, 64), nn.ReLU())
        self.conv_cls = nn.Linear(64, num_class)
        self.conv_box = nn.Linear(64, code_size)

    def forward(self, batch_dict):
        x = self.shared(batch_dict["encoded_spconv_tensor"])
        batch_dict["cls_preds"] = self.conv_cls(x)
        batch_dict["box_preds"] = self.conv_box(x)
        return batch_dict

    def get_loss(self, batch_dict):
        cls_loss = nn.functional.cross_entropy(batch_dict["cls_preds"], batch_dict["gt_labels"])
        box_loss = nn.functional.smooth_l1_loss(batch_dict["box_preds"], batch_dict["gt_boxes"])
        return cls_loss + 2.0 * box_loss


class SECONDNet(nn.Module):
    def __init__(self, model_cfg):
        super().__init__()
        self.vfe = MeanVFE(model_cfg["num_point_features"])
        self.backbone_3d = VoxelBackBone8x(model_cfg["num_point_features"])
        self.dense_head = AnchorHeadSingle(self.backbone_3d.num_point_features,
                                           model_cfg["num_class"])
        self.module_list = [self.vfe, self.backbone_3d, self.dense_head]

    def forward(self, batch_dict):
        for cur_module in self.module_list:
            batch_dict = cur_module(batch_dict)
        loss = self.dense_head.get_loss(batch_dict)
        return loss, {"loss": loss.item()}
