import math

import torch
import torch.nn as nn
import torch.utils.checkpoint

from mutual_self_attention import RefTransformerBlock


def timestep_embedding(timesteps, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = timesteps.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TokenUNet(nn.Module):
    def __init__(self, channels, num_blocks, heads):
        super().__init__()
        self.channels = channels
        self.conv_in = nn.Linear(channels, channels)
        self.time_mlp = nn.Sequential(nn.Linear(channels, channels), nn.SiLU(), nn.Linear(channels, channels))
        self.blocks = nn.ModuleList([RefTransformerBlock(channels, heads) for _ in range(num_blocks)])
        self.norm_out = nn.LayerNorm(channels)
        self.conv_out = nn.Linear(channels, channels)
        self.gradient_checkpointing = False

    def enable_gradient_checkpointing(self):
        self.gradient_checkpointing = True

    def forward(self, sample, timesteps):
        temb = self.time_mlp(timestep_embedding(timesteps, self.channels))
        hidden_states = self.conv_in(sample)
        for block in self.blocks:
            if self.training and self.gradient_checkpointing:

                def create_custom_forward(module):
                    def custom_forward(*inputs):
                        return module(*inputs)

                    return custom_forward

                hidden_states = torch.utils.checkpoint.checkpoint(
                    create_custom_forward(block), hidden_states, temb, use_reentrant=True
                )
            else:
                hidden_states = block(hidden_states, temb)
        return self.conv_out(self.norm_out(hidden_states))
