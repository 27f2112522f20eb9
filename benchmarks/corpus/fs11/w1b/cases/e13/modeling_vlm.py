import compat  # noqa: F401
import torch
import torch.nn as nn
from transformers import LlamaConfig, LlamaForCausalLM


class VisionEncoder(nn.Module):
    def __init__(self, image_size=32, patch_size=8, hidden=48, layers=2, heads=4):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, hidden, kernel_size=patch_size, stride=patch_size)
        num_patches = (image_size // patch_size) ** 2
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, hidden))
        layer = nn.TransformerEncoderLayer(hidden, heads, 4 * hidden, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, pixel_values):
        x = self.patch_embed(pixel_values).flatten(2).transpose(1, 2) + self.pos_embed
        return self.norm(self.encoder(x))


class VLChatModel(nn.Module):
    def __init__(self, llm_config, vision_hidden=48, img_context_token_id=3):
        super().__init__()
        self.img_context_token_id = img_context_token_id
        self.vision_model = VisionEncoder(hidden=vision_hidden)
        self.language_model = LlamaForCausalLM(llm_config)
        llm_hidden = llm_config.hidden_size
        self.mlp1 = nn.Sequential(
            nn.LayerNorm(vision_hidden),
            nn.Linear(vision_hidden, llm_hidden),
            nn.GELU(),
            nn.Linear(llm_hidden, llm_hidden),
        )

    def extract_feature(self, pixel_values):
        vit_embeds = self.vision_model(pixel_values)
        return self.mlp1(vit_embeds)

    def forward(self, pixel_values, input_ids, attention_mask, labels):
        vit_embeds = self.extract_feature(pixel_values)

        input_embeds = self.language_model.get_input_embeddings()(input_ids)
        B, N, C = input_embeds.shape
        input_embeds = input_embeds.reshape(B * N, C)

        flat_ids = input_ids.reshape(B * N)
        selected = flat_ids == self.img_context_token_id
        input_embeds[selected] = input_embeds[selected] * 0.0 + vit_embeds.reshape(-1, C)

        input_embeds = input_embeds.reshape(B, N, C)
        outputs = self.language_model(
            inputs_embeds=input_embeds,
            attention_mask=attention_mask,
            labels=labels,
            use_cache=False,
        )
        return outputs


def build_model(num_layers=2):
    cfg = LlamaConfig(
        vocab_size=128,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=num_layers,
        num_attention_heads=4,
        num_key_value_heads=4,
        max_position_embeddings=64,
    )
    return VLChatModel(cfg)
