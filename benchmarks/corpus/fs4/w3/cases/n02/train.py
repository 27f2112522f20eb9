import torch
import torch.nn.functional as F

from model import LinearProbe

torch.manual_seed(0)

NUM_CLASSES = 5
EPOCHS = 2
STEPS = 3


def get_batch():
    images = torch.randn(8, 3, 32, 32)
    labels = torch.randint(0, NUM_CLASSES, (8,))
    return images, labels


def train_one_epoch(model, optimizer, epoch):
    model.train()
    total = 0.0
    for _ in range(STEPS):
        images, labels = get_batch()
        logits = model(images)
        loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / STEPS:.4f}")


model = LinearProbe(NUM_CLASSES, freeze_backbone=True)
optimizer = torch.optim.AdamW(model.trainable_parameters(), lr=1e-3, weight_decay=0.05)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=EPOCHS)

for epoch in range(EPOCHS):
    train_one_epoch(model, optimizer, epoch)
    scheduler.step()
