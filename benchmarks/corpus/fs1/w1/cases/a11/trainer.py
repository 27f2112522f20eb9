import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, args, model, loader):
        self.args = args
        self.model = model
        self.loader = loader
        params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.Adam(params, lr=args["lr"], betas=(0.9, 0.999), eps=1e-8)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=200, gamma=0.5)

    def train(self):
        self.model.train()
        for batch, (lr, hr) in enumerate(self.loader):
            self.optimizer.zero_grad()
            sr = self.model(lr)
            loss = F.l1_loss(sr, hr)
            loss.backward()
            self.optimizer.step()
            print(f"[batch {batch}] L1 {loss.item():.4f}")
        self.scheduler.step()
