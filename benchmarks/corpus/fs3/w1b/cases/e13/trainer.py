import torch
import torch.nn.functional as F


class Stage2Trainer:
    def __init__(self, stage1, model, cfg):
        self.stage1 = stage1
        self.model = model
        self.cfg = cfg
        self.params = model.own_parameters()
        self.optimizer = torch.optim.AdamW(self.params, lr=cfg["lr"], weight_decay=0.01)

    def train_step(self, x):
        codes = self.stage1.encode(x)
        logits = self.model(codes)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), codes.reshape(-1))
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward(inputs=self.params)
        torch.nn.utils.clip_grad_norm_(self.params, self.cfg["grad_clip"])
        self.optimizer.step()
        return loss.item()

    def fit(self, loader):
        self.model.train()
        for epoch in range(self.cfg["epochs"]):
            for step, x in enumerate(loader):
                loss = self.train_step(x)
                if step % 2 == 0:
                    print(f"epoch {epoch} step {step} loss {loss:.4f}")
