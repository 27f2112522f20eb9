import torch
import torch.nn as nn
import torch.nn.functional as F


def magnitude_mask(weight, sparsity):
    k = int(weight.numel() * sparsity)
    thresh = weight.abs().flatten().kthvalue(k).values
    return weight.abs() > thresh


@torch.no_grad()
def collect_ffn_io(model, layer_idx, samples):
    layer = model.model.decoder.layers[layer_idx]
    cache = {"x": [], "y": []}

    def hook(mod, inp, out):
        cache["x"].append(inp[0].reshape(-1, inp[0].shape[-1]))

    def hook_out(mod, inp, out):
        cache["y"].append(out.reshape(-1, out.shape[-1]))

    h1 = layer.fc1.register_forward_hook(hook)
    h2 = layer.fc2.register_forward_hook(hook_out)
    for ids in samples:
        model(ids)
    h1.remove()
    h2.remove()
    return torch.cat(cache["x"]), torch.cat(cache["y"])


class FFNPruner:
    def __init__(self, fc1, fc2, cfg):
        self.fc1, self.fc2, self.cfg = fc1, fc2, cfg

    def prune(self, x, y):
        cfg = self.cfg
        with torch.no_grad():
            for fc in (self.fc1, self.fc2):
                fc.weight.mul_(magnitude_mask(fc.weight, cfg["sparsity"]))
            z = self.fc1(x)
            s = F.relu(z)
        for it in range(cfg["iters"]):
            for chunk in torch.arange(s.shape[1]).split(cfg["chunk"]):
                s_batch = s[:, chunk].clone().detach().requires_grad_(True)
                s_full = s.clone()
                s_full[:, chunk] = s_batch
                recon = F.linear(s_full, self.fc2.weight, self.fc2.bias)
                loss_s = cfg["alpha"] * (recon - y).pow(2).mean() \
                    + cfg["beta"] * (s_batch - F.relu(z[:, chunk])).pow(2).mean()
                loss_s.backward()
                s_batch -= cfg["s_lr"] * s_batch.grad
                s[:, chunk] = s_batch.detach()
            self.refit_fc2(s, y)
        return s

    @torch.no_grad()
    def refit_fc2(self, s, y):
        mask = self.fc2.weight != 0
        sol = torch.linalg.lstsq(s, y - self.fc2.bias).solution.t()
        self.fc2.weight.copy_(sol * mask)
