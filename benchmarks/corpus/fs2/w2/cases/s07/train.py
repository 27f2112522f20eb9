import torch
import torch.nn.functional as F

from model import Tacotron2

hparams = {
    "n_symbols": 40,
    "n_speakers": 4,
    "encoder_embedding_dim": 32,
    "speaker_embedding_dim": 8,
    "decoder_dim": 32,
    "n_mel_channels": 20,
    "speaker_classifier_hidden": 16,
    "use_speaker_adversarial": True,
    "grl_scale": 1.0,
    "speaker_loss_weight": 0.5,
    "learning_rate": 1e-3,
    "batch_size": 6,
}


def tacotron_loss(mel_out, mel_target, speaker_logits, speaker_ids):
    mel_loss = F.mse_loss(mel_out, mel_target)
    spk_loss = torch.zeros(())
    if speaker_logits is not None:
        spk_loss = F.cross_entropy(speaker_logits, speaker_ids)
    return mel_loss + hparams["speaker_loss_weight"] * spk_loss, mel_loss, spk_loss


torch.manual_seed(0)
model = Tacotron2(hparams)
optimizer = torch.optim.Adam(model.parameters(), lr=hparams["learning_rate"])

for iteration in range(6):
    text = torch.randint(1, hparams["n_symbols"], (hparams["batch_size"], 15))
    speaker_ids = torch.randint(0, hparams["n_speakers"], (hparams["batch_size"],))
    mel_target = torch.randn(hparams["batch_size"], 15, hparams["n_mel_channels"])

    model.zero_grad()
    mel_out, speaker_logits = model(text, speaker_ids)
    loss, mel_loss, spk_loss = tacotron_loss(mel_out, mel_target, speaker_logits, speaker_ids)
    loss.backward()
    optimizer.step()
    print(f"Train loss {iteration} {loss.item():.6f} mel {mel_loss.item():.4f} speaker {spk_loss.item():.4f}")
