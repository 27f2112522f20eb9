import torch
import torch.nn.functional as F

from config import CONFIG
from model import Seq2Seq


def make_batch(cfg):
    src = torch.randint(3, cfg["src_vocab"], (cfg["batch_size"], cfg["src_len"]))
    tgt = torch.randint(3, cfg["tgt_vocab"], (cfg["batch_size"], cfg["tgt_len"]))
    bos = torch.full((cfg["batch_size"], 1), 1)
    return src, torch.cat([bos, tgt[:, :-1]], dim=1), tgt


def main():
    torch.manual_seed(CONFIG["seed"])
    model = Seq2Seq(CONFIG)
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    model.train()
    for step in range(CONFIG["steps"]):
        src, tgt_in, tgt_out = make_batch(CONFIG)
        logits = model(src, tgt_in)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1), ignore_index=0)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CONFIG["clip"])
        optimizer.step()
        print(f"step {step}: loss={loss.item():.4f}")


if __name__ == "__main__":
    main()
