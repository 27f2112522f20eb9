import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2LMHeadModel

from vision_tower import VisionTower


class MLPConnector(nn.Module):
    def __init__(self, vision_hidden, text_hidden):
        super().__init__()
        self._connector = nn.Sequential(nn.Linear(vision_hidden, text_hidden), nn.GELU(),
                                        nn.Linear(text_hidden, text_hidden))

    def forward(self, x):
        return self._connector(x)


class TinyLlavaForConditionalGeneration(nn.Module):
    def __init__(self, vision_cfg, text_cfg):
        super().__init__()
        self.vision_tower = VisionTower(vision_cfg)
        self.language_model = GPT2LMHeadModel(GPT2Config(**text_cfg))
        self.connector = MLPConnector(self.vision_tower.hidden_size, self.language_model.config.n_embd)

    def encode_images(self, images):
        return self.connector(self.vision_tower(images))

    def forward(self, input_ids, images, labels):
        image_embeds = self.encode_images(images)
        text_embeds = self.language_model.get_input_embeddings()(input_ids)
        inputs_embeds = torch.cat([image_embeds, text_embeds], dim=1)
        ignore = torch.full(image_embeds.shape[:2], -100, dtype=labels.dtype)
        full_labels = torch.cat([ignore, labels], dim=1)
        return self.language_model(inputs_embeds=inputs_embeds, labels=full_labels)
