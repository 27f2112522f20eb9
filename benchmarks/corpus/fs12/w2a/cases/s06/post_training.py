import torch
import torch.nn.functional as F


class PostTrainer:
    def __init__(self, model, hparams):
        self.model = model
        self.hparams = hparams
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=hparams["learning_rate"],
                                           weight_decay=hparams["weight_decay"])
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda s: min(1.0, (s + 1) / hparams["warmup_steps"]))

    def compute_loss(self, batch):
        mlm_logits, cls_logits = self.model(batch["ids"])
        mlm = F.cross_entropy(mlm_logits.transpose(1, 2), batch["mlm_labels"], ignore_index=-100)
        nsp = F.cross_entropy(cls_logits, batch["labels"])
        return mlm + nsp

    def train_step(self, batch):
        self.model.train()
        self.optimizer.zero_grad()
        loss = self.compute_loss(batch)
        loss.backward()
        self.optimizer.step()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.hparams["max_gradient_norm"])
        self.scheduler.step()
        return loss.item()
