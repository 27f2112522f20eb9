import torch

from model import HybridASR
from trainer import MultiTaskTrainer


def make_batch(batch_size=4, frames=40, feat_dim=20, vocab=16, senones=24, gen=None):
    feats = torch.randn(batch_size, frames, feat_dim, generator=gen)
    enc_frames = (frames + 1) // 2
    token_lens = torch.randint(3, 8, (batch_size,), generator=gen)
    tokens = torch.randint(1, vocab, (batch_size, int(token_lens.max())), generator=gen)
    alignments = torch.randint(0, senones, (batch_size, enc_frames), generator=gen)
    alignments[:, -3:] = -100
    return {"feats": feats, "tokens": tokens, "token_lens": token_lens,
            "enc_lens": torch.full((batch_size,), enc_frames, dtype=torch.long),
            "alignments": alignments}


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    trainer = MultiTaskTrainer(HybridASR())
    for step in range(3):
        l_ctc, l_frame = trainer.step(make_batch(gen=gen))
        print(f"step {step}: ctc {l_ctc:.3f} frame {l_frame:.3f} weights {trainer.weights.tolist()}")


if __name__ == "__main__":
    main()
