import torch
import torch.nn as nn

from attention import SetAttentionBlock


class SetTransformerReadout(nn.Module):
    def __init__(self, in_dim, d_model=32, num_heads=4, n_blocks=1, n_classes=3):
        super().__init__()
        self.embed = nn.Linear(in_dim, d_model)
        self.blocks = nn.ModuleList(SetAttentionBlock(d_model, num_heads, 2 * d_model) for _ in range(n_blocks))
        self.classifier = nn.Linear(d_model, n_classes)

    def forward(self, feats, lengths):
        x = self.embed(feats)
        for blk in self.blocks:
            x = blk(x, lengths)
        valid = torch.arange(x.size(1)).unsqueeze(0) < lengths.unsqueeze(1)
        pooled = torch.stack([x[i][valid[i]].mean(0) for i in range(x.size(0))])
        return self.classifier(pooled)
