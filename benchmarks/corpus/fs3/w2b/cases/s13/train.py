import torch
import torch.nn as nn

from actors import AtomIoUNet, IoUNetActor
from trainer import LTRTrainer

torch.manual_seed(0)


class SyntheticLoader:
    def __init__(self, name, n_batches, batch_size=8, n_proposals=16, feat_dim=32, training=True,
                 epoch_interval=1, stack_dim=0):
        self.name = name
        self.training = training
        self.epoch_interval = epoch_interval
        self.stack_dim = stack_dim
        gen = torch.Generator().manual_seed(hash(name) % 1000)
        self.batches = []
        for _ in range(n_batches):
            proposals = torch.rand(batch_size, n_proposals, 4, generator=gen)
            self.batches.append({
                "train_feat": torch.randn(batch_size, feat_dim, generator=gen),
                "train_bb": torch.rand(batch_size, 4, generator=gen),
                "test_feat": torch.randn(batch_size, feat_dim, generator=gen),
                "test_proposals": proposals,
                "proposal_iou": 1.0 - (proposals - 0.5).abs().mean(dim=-1) * 2,
            })

    def __len__(self):
        return len(self.batches)

    def __iter__(self):
        return iter(self.batches)


settings = {"print_interval": 10}
net = AtomIoUNet()
actor = IoUNetActor(net=net, objective=nn.MSELoss())
loaders = [SyntheticLoader("train", 20), SyntheticLoader("val", 4, training=False, epoch_interval=2)]
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=15, gamma=0.2)
trainer = LTRTrainer(actor, loaders, optimizer, settings, lr_scheduler)
trainer.train(max_epochs=2)
