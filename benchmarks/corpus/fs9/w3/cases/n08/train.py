import torch

from protonet import PrototypicalNetwork

N_WAY, K_SHOT, N_QUERY, IN_DIM, N_CLASSES = 5, 3, 4, 20, 30


def sample_episode(class_means, gen):
    classes = torch.randperm(class_means.size(0), generator=gen)[:N_WAY]
    s, sl, q, ql = [], [], [], []
    for i, c in enumerate(classes):
        pts = class_means[c] + 0.5 * torch.randn(K_SHOT + N_QUERY, IN_DIM, generator=gen)
        s.append(pts[:K_SHOT]); q.append(pts[K_SHOT:])
        sl.append(torch.full((K_SHOT,), i)); ql.append(torch.full((N_QUERY,), i))
    return {"support": torch.cat(s), "support_labels": torch.cat(sl),
            "query": torch.cat(q), "query_labels": torch.cat(ql)}


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    class_means = torch.randn(N_CLASSES, IN_DIM, generator=gen)
    model = PrototypicalNetwork(IN_DIM)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    for it in range(60):
        loss, acc = model.loss(sample_episode(class_means, gen), N_WAY)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        if it % 20 == 0:
            print(f"iter {it:3d} loss {loss.item():.4f} acc {acc.item():.3f}")
    return model


if __name__ == "__main__":
    model = main()
