import torch

from common import normalize_to_box
from losses import AllLosses
from network import NetworkFull

torch.manual_seed(0)

opt = {"lr": 1e-3, "cd_weight": 1.0, "cage_weight": 0.1, "mvc_weight": 10.0,
       "n_cage": 12, "n_points": 256, "batch_size": 4, "iters": 20}


def sample_pair(batch_size, n_points):
    src = normalize_to_box(torch.randn(batch_size, n_points, 3) * torch.tensor([1.0, 0.6, 0.3]))
    scale = 1 + 0.3 * torch.rand(batch_size, 1, 3)
    tgt = normalize_to_box(src[:, torch.randperm(n_points)] * scale)
    return {"source_shape": src, "target_shape": tgt}


net = NetworkFull(n_cage=opt["n_cage"], n_points=opt["n_points"])
criterion = AllLosses(opt)
optimizer = torch.optim.Adam(net.parameters(), lr=opt["lr"])

for it in range(opt["iters"]):
    all_inputs = sample_pair(opt["batch_size"], opt["n_points"])
    all_outputs = net(all_inputs["source_shape"], all_inputs["target_shape"])
    losses = criterion(all_inputs, all_outputs)
    total = sum(losses.values())
    optimizer.zero_grad()
    total.backward()
    optimizer.step()
    if it % 5 == 0:
        print(it, " ".join(f"{k}={v.item():.4f}" for k, v in losses.items()))
