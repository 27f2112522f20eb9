import torch.nn as nn


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, 5, padding=2)
        self.norm = nn.GroupNorm(4, cout)
        self.act = nn.GELU()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class SequenceClassifier(nn.Module):
    def __init__(self, vocab=120, emb=32, channels=(32, 32, 48), num_classes=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=0)
        blocks, cin = [], emb
        for cout in channels:
            blocks.append(ConvBlock(cin, cout))
            cin = cout
        self.blocks = nn.ModuleList(blocks)
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(cin, num_classes))

    def param_groups(self):
        groups = {"embed": self.embed, "head": self.head}
        for i, b in enumerate(self.blocks):
            groups[f"block{i}"] = b
        return groups

    def forward(self, ids):
        x = self.embed(ids).transpose(1, 2)
        for b in self.blocks:
            x = b(x)
        return self.head(x.amax(dim=2))
