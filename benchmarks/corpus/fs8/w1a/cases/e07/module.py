import lightning as L
import torch
import torch.nn.functional as F
from torch import nn

from optim import create_optimizer


class TextClassifier(L.LightningModule):
    def __init__(self, vocab_size=1000, embed_dim=64, num_classes=4, optimizer="adamw", lr=1e-3,
                 weight_decay=0.01):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, mode="mean")
        self.encoder = nn.Sequential(nn.Linear(embed_dim, 128), nn.GELU(), nn.Dropout(0.1))
        self.head = nn.Linear(128, num_classes)

    def forward(self, tokens):
        return self.head(self.encoder(self.embedding(tokens)))

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        tokens, labels = batch

        def closure():
            logits = self(tokens)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            self.manual_backward(loss)
            self.clip_gradients(opt, gradient_clip_val=1.0, gradient_clip_algorithm="norm")
            return loss

        loss = opt.step(closure=closure)
        self.log("train_loss", loss, prog_bar=False)

    def validation_step(self, batch, batch_idx):
        tokens, labels = batch
        logits = self(tokens)
        acc = (logits.argmax(-1) == labels).float().mean()
        self.log("val_acc", acc)

    def configure_optimizers(self):
        hp = self.hparams
        return create_optimizer(hp.optimizer, self.parameters(), lr=hp.lr, weight_decay=hp.weight_decay)
