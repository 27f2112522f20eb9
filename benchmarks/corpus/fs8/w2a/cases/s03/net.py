import torch
from torch import nn


class MLPNet(nn.Module):
    def __init__(self, net_spec, in_dim, out_dim):
        super().__init__()
        hid = net_spec["hid_layers"]
        layers, prev = [], in_dim
        for h in hid:
            layers += [nn.Linear(prev, h), nn.SELU()]
            prev = h
        layers.append(nn.Linear(prev, out_dim))
        self.model = nn.Sequential(*layers)
        self.loss_fn = nn.SmoothL1Loss()
        self.update_type = net_spec["update_type"]
        self.update_frequency = net_spec["update_frequency"]
        self.polyak_coef = net_spec.get("polyak_coef", 0.0)
        self.optim = torch.optim.Adam(self.parameters(), lr=net_spec["lr"])

    def forward(self, x):
        return self.model(x)

    def train_step(self, loss):
        self.optim.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.parameters(), 10.0)
        self.optim.step()
        return loss


def copy(src_net, tar_net):
    tar_net.load_state_dict(src_net.state_dict())


def polyak_update(src_net, tar_net, old_ratio=0.5):
    for src_param, tar_param in zip(src_net.parameters(), tar_net.parameters()):
        tar_param.data.copy_(old_ratio * tar_param.data + (1.0 - old_ratio) * src_param.data)
