import math

import compat  # noqa: F401
import torch
import torch.nn as nn
from transformers import RecurrentGemmaConfig
from transformers.models.recurrent_gemma.modeling_recurrent_gemma import RecurrentGemmaRglru


class RGLRUClassifier(nn.Module):
    """Row-by-row sequence classifier: one RG-LRU layer followed by a linear head."""

    def __init__(self, input_dim=28, lru_width=64, num_heads=4, num_classes=10):
        super().__init__()
        config = RecurrentGemmaConfig(hidden_size=lru_width, lru_width=lru_width, num_attention_heads=num_heads)
        self.in_proj = nn.Linear(input_dim, lru_width)
        self.rglru = RecurrentGemmaRglru(config)
        self.norm = nn.LayerNorm(lru_width)
        self.head = nn.Linear(lru_width, num_classes)
        self.reset_parameters()

    def reset_parameters(self):
        lru = self.rglru
        for w in (lru.input_gate_weight, lru.recurrent_gate_weight):
            nn.init.normal_(w, std=1.0 / math.sqrt(w.size(-1)))
        nn.init.zeros_(lru.input_gate_bias)
        nn.init.zeros_(lru.recurrent_gate_bias)
        with torch.no_grad():
            a = torch.empty_like(lru.recurrent_param).uniform_(0.81, 0.998)
            lru.recurrent_param.copy_(torch.log(torch.expm1(-0.125 * torch.log(a))))

    def reset_state(self):
        self.rglru.recurrent_states = None

    def forward(self, images):
        x = self.in_proj(images.flatten(1, 2))
        B, T, _ = x.shape
        position_ids = torch.arange(T).unsqueeze(0).expand(B, T)
        h = self.rglru(x, position_ids)
        return self.head(self.norm(h[:, -1]))
