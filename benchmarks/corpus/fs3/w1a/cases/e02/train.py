"""Train a small attentional seq2seq model on random token data."""
import torch
import torch.nn as nn

from models import RNNEncoder, InputFeedRNNDecoder, NMTModel
from trainer import NMTLossCompute, Trainer

opt = {
    "src_vocab": 40,
    "tgt_vocab": 40,
    "word_vec_size": 16,
    "rnn_size": 32,
    "layers": 2,
    "dropout": 0.1,
    "learning_rate": 1e-3,
    "batch_size": 6,
    "src_len": 9,
    "tgt_len": 14,
    "truncated_decoder": 5,
    "epochs": 1,
}


def make_batches(n_batches):
    batches = []
    for _ in range(n_batches):
        src = torch.randint(1, opt["src_vocab"], (opt["src_len"], opt["batch_size"]))
        tgt = torch.randint(1, opt["tgt_vocab"], (opt["tgt_len"], opt["batch_size"]))
        batches.append((src, tgt))
    return batches


def build_model():
    encoder = RNNEncoder(opt["src_vocab"], opt["word_vec_size"], opt["rnn_size"], opt["layers"])
    decoder = InputFeedRNNDecoder(opt["tgt_vocab"], opt["word_vec_size"], opt["rnn_size"],
                                  opt["layers"], opt["dropout"])
    model = NMTModel(encoder, decoder)
    generator = nn.Sequential(nn.Linear(opt["rnn_size"], opt["tgt_vocab"]), nn.LogSoftmax(dim=-1))
    return model, generator


def main():
    torch.manual_seed(0)
    model, generator = build_model()
    params = list(model.parameters()) + list(generator.parameters())
    optim = torch.optim.Adam(params, lr=opt["learning_rate"])
    trainer = Trainer(model, NMTLossCompute(generator), optim, trunc_size=opt["truncated_decoder"])
    for epoch in range(opt["epochs"]):
        trainer.train_epoch(make_batches(3), epoch)


if __name__ == "__main__":
    main()
