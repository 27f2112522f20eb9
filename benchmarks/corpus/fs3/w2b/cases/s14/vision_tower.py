import torch
import torch.nn as nn
from transformers import CLIPVisionConfig, CLIPVisionModel


class VisionTower(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self._vision_tower = CLIPVisionModel(CLIPVisionConfig(**cfg))
        self.select_layer = -2
        self.select_feature = "patch"

    def feature_select(self, image_forward_outs):
        image_features = image_forward_outs.hidden_states[self.select_layer]
        if self.select_feature == "patch":
            image_features = image_features[:, 1:]
        return image_features

    @torch.no_grad()
    def forward(self, images):
        image_forward_outs = self._vision_tower(images, output_hidden_states=True)
        return self.feature_select(image_forward_outs)

    @property
    def hidden_size(self):
        return self._vision_tower.config.hidden_size
