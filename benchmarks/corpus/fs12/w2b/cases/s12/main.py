import torch

from sasrec import SASRec

CONFIG = {"n_items": 200, "max_his": 10, "emb_size": 32, "num_heads": 2, "dropout": 0.1,
          "lr": 1e-3, "l2": 1e-6, "batch_size": 32, "epochs": 3, "batches_per_epoch": 8, "num_neg": 1}


class SeqReader:
    def __init__(self, cfg, n_users=256, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.cfg = cfg
        self.lengths = torch.randint(0, cfg["max_his"] + 1, (n_users,), generator=g)
        self.items = torch.randint(1, cfg["n_items"] + 1, (n_users, cfg["max_his"] + 1), generator=g)
        self.g = g

    def batch(self):
        cfg = self.cfg
        idx = torch.randint(0, len(self.lengths), (cfg["batch_size"],), generator=self.g)
        lengths = self.lengths[idx]
        seqs = self.items[idx]
        history = torch.zeros(cfg["batch_size"], cfg["max_his"], dtype=torch.long)
        for row, (seq, n) in enumerate(zip(seqs, lengths)):
            history[row, :n] = seq[:n]
        pos = seqs[torch.arange(cfg["batch_size"]), lengths]
        neg = torch.randint(1, cfg["n_items"] + 1, (cfg["batch_size"], cfg["num_neg"]), generator=self.g)
        return history, lengths, torch.cat([pos[:, None], neg], dim=1)


def bpr_loss(pred):
    pos, neg = pred[:, :1], pred[:, 1:]
    return -torch.nn.functional.logsigmoid(pos - neg).mean()


def main(cfg=CONFIG):
    torch.manual_seed(0)
    reader = SeqReader(cfg)
    model = SASRec(cfg["n_items"], cfg["max_his"], cfg["emb_size"], cfg["num_heads"], cfg["dropout"])
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"], weight_decay=cfg["l2"])
    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for _ in range(cfg["batches_per_epoch"]):
            history, lengths, candidates = reader.batch()
            loss = bpr_loss(model(history, lengths, candidates))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"Epoch {epoch + 1:<3} loss={total / cfg['batches_per_epoch']:.4f}")
    return model


if __name__ == "__main__":
    main()
