import torch

from config import load_config
from module import LNNP


def make_molecules(n_mols, n_atoms=6):
    mols = []
    for _ in range(n_mols):
        z = torch.randint(1, 9, (n_atoms,))
        pos = torch.randn(n_atoms, 3) * 1.2
        y = torch.randn(1) * 0.5
        dy = torch.randn(n_atoms, 3) * 0.1
        mols.append((z, pos, y, dy))
    return mols


def collate(mols):
    z = torch.cat([m[0] for m in mols])
    pos = torch.cat([m[1] for m in mols])
    y = torch.stack([m[2] for m in mols])
    dy = torch.cat([m[3] for m in mols])
    batch = torch.cat([torch.full((m[0].numel(),), i, dtype=torch.long) for i, m in enumerate(mols)])
    return {"z": z, "pos": pos.clone(), "y": y, "dy": dy, "batch": batch, "num_graphs": len(mols)}


def main():
    args = load_config()
    torch.manual_seed(args["seed"])
    train_set = make_molecules(16)
    val_set = make_molecules(4)

    module = LNNP(args)
    optimizer = module.configure_optimizers()
    bs = args["batch_size"]
    for epoch in range(args["num_epochs"]):
        module.train()
        for i in range(0, len(train_set), bs):
            data = collate(train_set[i:i + bs])
            loss = module.training_step(data)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        module.eval()
        val_loss = module.validation_step(collate(val_set))
        print(f"epoch {epoch}: train_y {torch.stack(module.losses['train_y']).mean():.4f} "
              f"val {val_loss.item():.4f}")
        module.losses = {"train_y": [], "train_dy": []}
    return module


if __name__ == "__main__":
    module = main()
