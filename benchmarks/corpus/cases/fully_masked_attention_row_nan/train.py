import torch
import torch.nn.functional as F

from attention import Model


def make_batch(b=4, n=10):
    feats = torch.randn(b, n, 4)
    target = torch.randn(b, n)
    valid = torch.rand(b, n) > 0.2
    contact = torch.rand(b, n, n) > 0.5
    pair_mask = valid[:, :, None] & valid[:, None, :] & contact
    return feats, target, valid, pair_mask


def main():
    torch.manual_seed(0)
    model = Model()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        feats, target, valid, pair_mask = make_batch()
        pred = model(feats, pair_mask)
        loss = F.mse_loss(pred[valid], target[valid])  # padded positions are left out of the loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        nan_w = torch.isnan(model.attn.to_qkv.weight).any().item()
        print(f"step {step}: loss {loss.item():.4f}  nan in to_qkv weight: {nan_w}")


if __name__ == "__main__":
    main()
