import torch
import torch.nn as nn
import torch.nn.functional as F


def init_bank(L, channel, device):
    return torch.randn(L, channel).to(device)


class MemoryModule(nn.Module):
    def __init__(self, L=50, channel=128, device="cpu"):
        super().__init__()
        self.keys = init_bank(L, channel, device)
        self.values = init_bank(L, channel, device)
        self.softmax = nn.Softmax(dim=1)
        self.channel = channel

    def forward(self, x, normality=False):
        b, c, h, w = x.size()
        x = x.view(b, c, -1).permute(0, 2, 1)
        norm_x = F.normalize(x, p=2, dim=2)
        values = self.values.unsqueeze(0).expand(b, -1, -1)
        if not normality:
            keys = self.keys.unsqueeze(0).expand(b, -1, -1)
            norm_keys = F.normalize(keys, p=2, dim=2)
        else:
            norm_keys = F.normalize(values, p=2, dim=2)
        cos_sim = torch.matmul(norm_keys, norm_x.transpose(1, 2))
        sim_vec = self.softmax(cos_sim)
        f_norm = torch.matmul(sim_vec.permute(0, 2, 1), values)
        return f_norm.permute(0, 2, 1).reshape(b, self.channel, h, w)
