import logging

import torch
from torch.nn.utils import clip_grad_norm_


class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optimizer, data_loader, criterion, args):
        model.train()
        clip = args.get("grad_clip", 50)
        log_interval = args.get("log_interval", 10)
        for batch_idx, (feats, target, feats_lengths) in enumerate(data_loader):
            logits = model(feats)
            loss, acc = criterion(logits, target, feats_lengths)
            loss.backward()
            grad_norm = clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optimizer.step()
            if batch_idx % log_interval == 0:
                logging.info("TRAIN Batch %d loss %.6f acc %.4f", batch_idx, loss.item(), acc)
                print(f"TRAIN Batch {batch_idx} loss {loss.item():.6f} acc {acc:.4f}")
            self.step += 1

    def cv(self, model, data_loader, criterion):
        model.eval()
        num_seen, total_loss = 0, 0.0
        with torch.no_grad():
            for feats, target, feats_lengths in data_loader:
                loss, _ = criterion(model(feats), target, feats_lengths)
                total_loss += loss.item() * feats.size(0)
                num_seen += feats.size(0)
        return total_loss / num_seen
