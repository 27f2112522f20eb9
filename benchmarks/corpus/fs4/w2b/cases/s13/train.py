import copy

import torch
import torch.nn.functional as F

from finetune import freeze_encoder, trainable_parameters
from models import MPNN

ARGS = {
    "epochs": 4,
    "batch_size": 16,
    "init_lr": 1e-3,
    "checkpoint": "pretrained",
    "freeze_encoder": True,
    "frzn_ffn_layers": 0,
}


def random_molecules(n, max_atoms, d_v, g):
    n_atoms = torch.randint(4, max_atoms + 1, (n,), generator=g)
    V = torch.randn(n, max_atoms, d_v, generator=g)
    mask = (torch.arange(max_atoms)[None, :] < n_atoms[:, None]).float()
    A = (torch.rand(n, max_atoms, max_atoms, generator=g) < 0.3).float()
    A = torch.triu(A, 1)
    A = (A + A.transpose(1, 2)) * mask[:, :, None] * mask[:, None, :]
    return V * mask[..., None], A, mask


def pretrain_checkpoint(g):
    torch.manual_seed(0)
    source = MPNN()
    V, A, mask = random_molecules(64, 12, 16, g)
    y = V.sum((1, 2)).unsqueeze(1) * 0.1
    opt = torch.optim.Adam(source.parameters(), lr=1e-3)
    source.train()
    for _ in range(5):
        loss = F.mse_loss(source(V, A, mask), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return copy.deepcopy(source.state_dict())


def build_model(args, checkpoint):
    model = MPNN()
    model.load_state_dict(checkpoint)
    return model


def fit(model, data, args):
    V, A, mask, y = data
    model.train()
    if args["freeze_encoder"]:
        freeze_encoder(model, args["frzn_ffn_layers"])
    optimizer = torch.optim.Adam(trainable_parameters(model), lr=args["init_lr"])
    n = V.size(0)
    for epoch in range(args["epochs"]):
        perm = torch.randperm(n)
        total = 0.0
        for start in range(0, n, args["batch_size"]):
            idx = perm[start:start + args["batch_size"]]
            preds = model(V[idx], A[idx], mask[idx])
            loss = F.mse_loss(preds, y[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * idx.numel()
        print(f"epoch {epoch}: train mse {total / n:.4f}")


g = torch.Generator().manual_seed(3)
checkpoint = pretrain_checkpoint(g)
V, A, mask = random_molecules(96, 12, 16, g)
y = (V[..., :4].sum((1, 2)) - V[..., 4:8].sum((1, 2))).unsqueeze(1) * 0.2 + 1.5
model = build_model(ARGS, checkpoint)
fit(model, (V, A, mask, y), ARGS)
