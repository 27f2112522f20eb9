import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

HPARAMS = {"batch_size": 8, "gradient_accumulation_steps": 4, "lr": 1e-3, "epochs": 2, "max_grad_norm": 1.0}


class TabularRegressor(nn.Module):
    def __init__(self, n_num=6, n_cat=10, emb_dim=4):
        super().__init__()
        self.cat_emb = nn.Embedding(n_cat, emb_dim)
        self.mlp = nn.Sequential(nn.Linear(n_num + emb_dim, 32), nn.BatchNorm1d(32), nn.ReLU(),
                                 nn.Linear(32, 1))

    def forward(self, num, cat):
        return self.mlp(torch.cat([num, self.cat_emb(cat)], dim=-1)).squeeze(-1)


def build_loader(n=128):
    num = torch.randn(n, 6)
    cat = torch.randint(0, 10, (n,))
    y = num[:, 0] * 2 - num[:, 1] + 0.1 * cat.float()
    return DataLoader(TensorDataset(num, cat, y), batch_size=HPARAMS["batch_size"], shuffle=True)


def main():
    set_seed(0)
    accelerator = Accelerator(cpu=True, gradient_accumulation_steps=HPARAMS["gradient_accumulation_steps"])
    model = TabularRegressor()
    optimizer = torch.optim.AdamW(model.parameters(), lr=HPARAMS["lr"])
    loader = build_loader()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for epoch in range(HPARAMS["epochs"]):
        model.train()
        total = 0.0
        for num, cat, y in loader:
            with accelerator.accumulate(model):
                pred = model(num, cat)
                loss = F.smooth_l1_loss(pred, y)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), HPARAMS["max_grad_norm"])
                optimizer.step()
                optimizer.zero_grad()
            total += loss.detach().item()
        accelerator.print(f"epoch {epoch}  mean loss {total / len(loader):.4f}")
    return accelerator.unwrap_model(model)


if __name__ == "__main__":
    model = main()
