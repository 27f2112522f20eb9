import torch
from torch import optim
from torch.optim import lr_scheduler
from torch.utils.data import DataLoader

from datasets import SiameseDigits, make_digits
from losses import ContrastiveLoss
from networks import EmbeddingNet, SiameseNet
from trainer import fit

cuda = torch.cuda.is_available()
torch.manual_seed(0)
generator = torch.Generator().manual_seed(0)

train_images, train_labels = make_digits(n_per_class=6, n_classes=5, generator=generator)
siamese_train_dataset = SiameseDigits(train_images, train_labels, train=True, seed=0)
batch_size = 10
siamese_train_loader = DataLoader(siamese_train_dataset, batch_size=batch_size, shuffle=True,
                                  generator=torch.Generator().manual_seed(0))

margin = 1.
embedding_net = EmbeddingNet()
model = SiameseNet(embedding_net)
loss_fn = ContrastiveLoss(margin)
lr = 1e-3
optimizer = optim.Adam(model.parameters(), lr=lr)
scheduler = lr_scheduler.StepLR(optimizer, 8, gamma=0.1, last_epoch=-1)
n_epochs = 3
log_interval = 1

fit(siamese_train_loader, model, loss_fn, optimizer, scheduler, n_epochs, log_interval)
