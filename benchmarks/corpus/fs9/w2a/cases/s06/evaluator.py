import torch
import torch.nn.functional as F


class Evaluator:
    def __init__(self, pad_id=0):
        self.pad_id = pad_id

    def evaluate(self, model, data):
        model.eval()
        total, correct, count = 0.0, 0, 0
        with torch.no_grad():
            for src, tgt in data:
                log_probs = model(src, tgt[:, :-1])
                gold = tgt[:, 1:]
                total += F.nll_loss(log_probs.transpose(1, 2), gold, ignore_index=self.pad_id,
                                    reduction="sum").item()
                mask = gold.ne(self.pad_id)
                correct += (log_probs.argmax(-1).eq(gold) & mask).sum().item()
                count += mask.sum().item()
        return total / count, correct / count
