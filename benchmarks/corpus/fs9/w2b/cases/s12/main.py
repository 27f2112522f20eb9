import torch
from torch.utils.data import DataLoader, TensorDataset

from models import LinearProbe
from trainer import Trainer
from utils import freeze_backbone

torch.manual_seed(0)

images = torch.randn(48, 3, 32, 32) * 0.5 + 0.2
labels = torch.randint(0, 5, (48,))
train_loader = DataLoader(TensorDataset(images[:32], labels[:32]), batch_size=8, shuffle=True)
val_loader = DataLoader(TensorDataset(images[32:], labels[32:]), batch_size=8)

model = LinearProbe(num_classes=5)
freeze_backbone(model)
trainer = Trainer(model, lr=1e-2, epochs=2)
trainer.fit(train_loader, val_loader)
