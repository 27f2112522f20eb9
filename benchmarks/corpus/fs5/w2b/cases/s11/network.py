import torch
import torch.nn as nn


class TinyViT(nn.Module):
    def __init__(self, dim=48, depth=2, heads=4, patch=8, img=32):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        n = (img // patch) ** 2
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, n + 1, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, depth)
        self.norm = nn.LayerNorm(dim)
        self.embed_dim = dim

    def forward(self, x, prompts=None):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos_embed
        if prompts is not None:
            x = torch.cat([x[:, :1], prompts.expand(x.shape[0], -1, -1), x[:, 1:]], dim=1)
        x = self.blocks(x)
        return self.norm(x[:, 0])


class SiNet(nn.Module):
    def __init__(self, num_tasks, classes_per_task, prompt_length=4):
        super().__init__()
        self.image_encoder = TinyViT()
        dim = self.image_encoder.embed_dim
        self.prompt_pool = nn.ParameterList(
            [nn.Parameter(torch.randn(1, prompt_length, dim) * 0.02) for _ in range(num_tasks)])
        self.classifier_pool = nn.ModuleList(
            [nn.Linear(dim, classes_per_task) for _ in range(num_tasks)])
        self.numtask = 0

    def update_fc(self):
        self.numtask += 1

    def forward(self, x):
        t = self.numtask - 1
        feats = self.image_encoder(x, self.prompt_pool[t])
        return self.classifier_pool[t](feats)
