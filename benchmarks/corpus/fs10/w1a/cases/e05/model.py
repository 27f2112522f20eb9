import torch
import torch.nn as nn

from parallel import gather_from_sequence_parallel_region


class VisionEncoder(nn.Module):
    def __init__(self, patch_dim, hidden, num_deepstack):
        super().__init__()
        self.proj = nn.Linear(patch_dim, hidden)
        self.blocks = nn.ModuleList(
            [nn.TransformerEncoderLayer(hidden, 4, hidden * 2, batch_first=True, dropout=0.0)
             for _ in range(num_deepstack)]
        )
        self.merger = nn.Linear(hidden, hidden)

    def forward(self, patches):
        x = self.proj(patches)
        deepstack = []
        for blk in self.blocks:
            x = blk(x)
            deepstack.append(self.merger(x))
        return x, deepstack


class DecoderLayer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(hidden)
        self.attn = nn.MultiheadAttention(hidden, 4, batch_first=True)
        self.norm2 = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden * 2), nn.GELU(), nn.Linear(hidden * 2, hidden))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class VisionLanguageModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        hidden = cfg["hidden"]
        self.embed = nn.Embedding(cfg["vocab"], hidden)
        self.visual = VisionEncoder(cfg["patch_dim"], hidden, len(cfg["deepstack_layers"]))
        self.layers = nn.ModuleList([DecoderLayer(hidden) for _ in range(cfg["num_layers"])])
        self.deepstack_layers = cfg["deepstack_layers"]
        self.norm = nn.LayerNorm(hidden)
        self.lm_head = nn.Linear(hidden, cfg["vocab"], bias=False)
        self.image_token_id = cfg["image_token_id"]

    def _deepstack_process(self, hidden_states, visual_pos_masks, visual_embeds):
        local_this = hidden_states[visual_pos_masks, :] + visual_embeds
        hidden_states[visual_pos_masks, :] = local_this
        return hidden_states

    def forward(self, input_ids, patches=None):
        inputs_embeds = self.embed(input_ids)
        visual_pos_masks = None
        deepstack_embeds = []
        if patches is not None:
            visual_pos_masks = input_ids == self.image_token_id
            image_embeds, deepstack_embeds = self.visual(patches)
            inputs_embeds = inputs_embeds.masked_scatter(visual_pos_masks.unsqueeze(-1), image_embeds)

        hidden_states = inputs_embeds
        for idx, layer in enumerate(self.layers):
            hidden_states = layer(hidden_states)
            if visual_pos_masks is not None and idx in self.deepstack_layers:
                k = self.deepstack_layers.index(idx)
                hidden_states = gather_from_sequence_parallel_region(hidden_states)
                hidden_states = self._deepstack_process(
                    hidden_states, visual_pos_masks, deepstack_embeds[k].flatten(0, 1))
        return self.lm_head(self.norm(hidden_states))
