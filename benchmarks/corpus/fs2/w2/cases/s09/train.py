import compat  # noqa: F401
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import CLIPTextConfig, CLIPTextModel


def parse_args():
    parser = argparse.ArgumentParser(description="Textual inversion training script.")
    parser.add_argument("--placeholder_token_id", type=int, default=127)
    parser.add_argument("--initializer_token_id", type=int, default=42)
    parser.add_argument("--max_train_steps", type=int, default=6)
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--learning_rate", type=float, default=5e-3)
    parser.add_argument("--adam_beta1", type=float, default=0.9)
    parser.add_argument("--adam_beta2", type=float, default=0.999)
    parser.add_argument("--adam_weight_decay", type=float, default=1e-2)
    parser.add_argument("--adam_epsilon", type=float, default=1e-08)
    return parser.parse_args()


class TinyConditionalDenoiser(nn.Module):
    def __init__(self, channels=4, cond_dim=32, hidden=16):
        super().__init__()
        self.inp = nn.Conv2d(channels, hidden, 3, padding=1)
        self.cond = nn.Linear(cond_dim, hidden)
        self.out = nn.Conv2d(hidden, channels, 3, padding=1)

    def forward(self, latents, timesteps, encoder_hidden_states):
        h = self.inp(latents) + self.cond(encoder_hidden_states.mean(dim=1))[:, :, None, None]
        h = h * (1.0 + timesteps.float()[:, None, None, None] / 1000.0)
        return self.out(F.silu(h))


def make_prompts(args, generator, seq_len=8):
    ids = torch.randint(3, 120, (args.train_batch_size, seq_len), generator=generator)
    ids[:, 0] = 1
    ids[:, 3] = args.placeholder_token_id
    ids[:, -1] = 2
    return ids


def main():
    args = parse_args()
    config = CLIPTextConfig(vocab_size=128, hidden_size=32, intermediate_size=64,
                            num_hidden_layers=2, num_attention_heads=2, max_position_embeddings=16,
                            bos_token_id=1, eos_token_id=2, pad_token_id=0)
    torch.manual_seed(0)
    text_encoder = CLIPTextModel(config)
    unet = TinyConditionalDenoiser()

    token_embeds = text_encoder.get_input_embeddings().weight.data
    token_embeds[args.placeholder_token_id] = token_embeds[args.initializer_token_id].clone()

    unet.requires_grad_(False)
    text_encoder.encoder.requires_grad_(False)
    text_encoder.final_layer_norm.requires_grad_(False)
    text_encoder.embeddings.position_embedding.requires_grad_(False)

    optimizer = torch.optim.AdamW(
        text_encoder.get_input_embeddings().parameters(),
        lr=args.learning_rate,
        betas=(args.adam_beta1, args.adam_beta2),
        weight_decay=args.adam_weight_decay,
        eps=args.adam_epsilon,
    )

    generator = torch.Generator().manual_seed(1)
    text_encoder.train()
    for step in range(args.max_train_steps):
        input_ids = make_prompts(args, generator)
        latents = torch.randn(args.train_batch_size, 4, 8, 8, generator=generator)
        noise = torch.randn(latents.shape, generator=generator)
        timesteps = torch.randint(0, 1000, (args.train_batch_size,), generator=generator)
        noisy_latents = latents + noise * (timesteps.float() / 1000.0)[:, None, None, None]

        encoder_hidden_states = text_encoder(input_ids)[0]
        noise_pred = unet(noisy_latents, timesteps, encoder_hidden_states)
        loss = F.mse_loss(noise_pred.float(), noise.float(), reduction="mean")
        loss.backward()

        grads = text_encoder.get_input_embeddings().weight.grad
        index_grads_to_zero = torch.arange(config.vocab_size) != args.placeholder_token_id
        grads.data[index_grads_to_zero, :] = grads.data[index_grads_to_zero, :].fill_(0)

        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.detach().item():.4f}")

    return text_encoder


if __name__ == "__main__":
    text_encoder = main()
