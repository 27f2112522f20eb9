import compat  # noqa: F401
import lightning.pytorch as pl
import torch
import torch.nn.functional as F

from model import LSTMLanguageModel


class LitLanguageModel(pl.LightningModule):
    def __init__(self, vocab_size, embed_dim=32, hidden_dim=48, num_layers=2, lr=1e-3, clip=0.25):
        super().__init__()
        self.save_hyperparameters()
        self.automatic_optimization = False
        self.model = LSTMLanguageModel(vocab_size, embed_dim, hidden_dim, num_layers)
        self.previous_hidden = None

    def on_train_epoch_start(self):
        self.previous_hidden = None

    def training_step(self, batch, batch_idx):
        text, target = batch
        if self.previous_hidden is None:
            self.previous_hidden = self.model.init_hidden(text.size(0), device=text.device)
        opt = self.optimizers()
        opt.zero_grad()
        output, hidden = self.model(text, self.previous_hidden)
        self.previous_hidden = hidden
        loss = F.cross_entropy(output.reshape(-1, self.hparams.vocab_size), target.reshape(-1))
        self.manual_backward(loss)
        self.clip_gradients(opt, gradient_clip_val=self.hparams.clip, gradient_clip_algorithm="norm")
        opt.step()
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hparams.lr)
