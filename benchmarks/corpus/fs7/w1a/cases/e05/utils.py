import io

import torch

from model import TwoViewLPN
from opts import OPTS


def save_network(network):
    buf = io.BytesIO()
    torch.save(network.state_dict(), buf)
    buf.seek(0)
    return buf


def load_network(checkpoint, opt=OPTS):
    model = TwoViewLPN(opt)
    state = torch.load(checkpoint, map_location="cpu")
    model.load_state_dict(state)
    model.requires_grad_(False)
    return model.eval()
