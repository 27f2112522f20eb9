import torch

from model import AcousticModel, MMILoss

FEAT_DIM, NUM_ARCS = 20, 12


def make_batch(g, batch=6, T=30):
    feats = torch.randn(batch, T, FEAT_DIM, generator=g)
    lengths = torch.randint(T // 2, T + 1, (batch,), generator=g)
    lengths[0] = T
    targets = torch.randint(0, NUM_ARCS, (batch, T), generator=g)
    num_mask = torch.zeros(batch, T, NUM_ARCS, dtype=torch.bool)
    num_mask.scatter_(2, targets.unsqueeze(-1), True)
    num_mask[:, :, 0] = True
    return feats, num_mask, lengths


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(3)
    model = AcousticModel(FEAT_DIM, num_arcs=NUM_ARCS)
    criterion = MMILoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(15):
        feats, num_mask, lengths = make_batch(g)
        nnet_output = model(feats)
        loss = criterion(nnet_output, num_mask, lengths)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 3 == 0:
            print(f"step {step:2d}  mmi loss {loss.item():.4f}")
    return model, criterion


if __name__ == "__main__":
    model, criterion = main()
