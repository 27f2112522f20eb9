import argparse

import torch
import torch.nn.functional as F

from model import DualEncoder


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--conv_feature_layers", type=str,
                        default="[(64, 10, 5)] + [(64, 3, 2)] * 2 + [(64, 2, 2)]")
    parser.add_argument("--conv_bias", action="store_true", default=False)
    parser.add_argument("--encoder_embed_dim", type=int, default=48)
    parser.add_argument("--encoder_ffn_embed_dim", type=int, default=96)
    parser.add_argument("--encoder_attention_heads", type=int, default=4)
    parser.add_argument("--layer_use", type=int, default=1)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--dropout_input", type=float, default=0.1)
    parser.add_argument("--feature_grad_mult", type=float, default=0.1)
    parser.add_argument("--conv_pos", type=int, default=16)
    parser.add_argument("--conv_pos_groups", type=int, default=4)
    parser.add_argument("--visual_dim", type=int, default=32)
    parser.add_argument("--batch_size", type=int, default=4)
    parser.add_argument("--n_steps", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--temperature", type=float, default=0.07)
    return parser.parse_args()


def contrastive_loss(audio_emb, visual_emb, temperature):
    logits = audio_emb @ visual_emb.t() / temperature
    target = torch.arange(logits.shape[0])
    return 0.5 * (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target))


class Trainer:
    def __init__(self, args):
        self.args = args
        self.model = DualEncoder(args)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=args.lr)

    def make_batch(self):
        audio = torch.randn(self.args.batch_size, 1600)
        visual = torch.randn(self.args.batch_size, 49, self.args.visual_dim)
        return audio, visual

    def train_step(self, audio, visual):
        self.model.train()
        self.optimizer.zero_grad()
        audio_emb, visual_emb = self.model(audio, visual)
        loss = contrastive_loss(audio_emb, visual_emb, self.args.temperature)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def train(self):
        for step in range(self.args.n_steps):
            audio, visual = self.make_batch()
            loss = self.train_step(audio, visual)
            print(f"step {step} loss {loss:.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(get_args()).train()
