from collections import deque

import torch
import torch.nn as nn
from transformers import LlamaConfig, LlamaForCausalLM

IMAGE_TOKEN_ID = 3


class VisionTower(nn.Module):
    def __init__(self, hidden=24, patch=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, hidden, patch, stride=patch)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, images):
        return self.norm(self.patch_embed(images).flatten(2).transpose(1, 2))


class VILAForCausalLM(nn.Module):
    def __init__(self, llm_config, vision_hidden=24):
        super().__init__()
        self.llm = LlamaForCausalLM(LlamaConfig(**llm_config))
        self.vision_tower = VisionTower(vision_hidden)
        hidden = llm_config["hidden_size"]
        self.mm_projector = nn.Sequential(nn.Linear(vision_hidden, hidden), nn.GELU(),
                                          nn.Linear(hidden, hidden))

    def encode_images(self, images):
        return self.mm_projector(self.vision_tower(images))

    def _embed(self, input_ids, media, labels, attention_mask):
        text_embeds = self.llm.get_input_embeddings()(input_ids)
        media_embeds = deque(self.encode_images(media)) if media is not None else deque()
        if media is None:
            dummy = torch.zeros(1, 3, 8, 8, dtype=text_embeds.dtype)
            media_embeds_dummy = deque(self.encode_images(dummy))
            while media_embeds_dummy:
                dummy_embed = media_embeds_dummy.popleft()
                text_embeds += torch.sum(dummy_embed) * 0

        inputs_m, labels_m = [], []
        for k in range(input_ids.shape[0]):
            pieces, piece_labels = [], []
            for pos in range(input_ids.shape[1]):
                if not attention_mask[k, pos]:
                    continue
                if input_ids[k, pos] == IMAGE_TOKEN_ID and media_embeds:
                    img = media_embeds.popleft()
                    pieces.append(img)
                    piece_labels.append(torch.full((img.shape[0],), -100, dtype=torch.long))
                else:
                    pieces.append(text_embeds[k, pos:pos + 1])
                    piece_labels.append(labels[k, pos:pos + 1])
            inputs_m.append(torch.cat(pieces))
            labels_m.append(torch.cat(piece_labels))
        max_len = max(x.shape[0] for x in inputs_m)
        embeds = text_embeds.new_zeros(len(inputs_m), max_len, text_embeds.shape[-1])
        out_labels = torch.full((len(inputs_m), max_len), -100, dtype=torch.long)
        mask = torch.zeros(len(inputs_m), max_len, dtype=torch.long)
        for k, (e, lab) in enumerate(zip(inputs_m, labels_m)):
            embeds[k, :e.shape[0]] = e
            out_labels[k, :lab.shape[0]] = lab
            mask[k, :e.shape[0]] = 1
        return embeds, out_labels, mask

    def forward(self, input_ids, labels, attention_mask, media=None):
        embeds, labels, mask = self._embed(input_ids, media, labels, attention_mask)
        return self.llm(inputs_embeds=embeds, attention_mask=mask, labels=labels)
