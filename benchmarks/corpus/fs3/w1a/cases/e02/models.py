"""Attentional RNN encoder-decoder with input feeding."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNEncoder(nn.Module):
    def __init__(self, vocab_size, emb_size, hidden_size, num_layers):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, emb_size, padding_idx=0)
        self.rnn = nn.LSTM(emb_size, hidden_size, num_layers=num_layers)

    def forward(self, src):
        emb = self.embeddings(src)
        memory_bank, encoder_final = self.rnn(emb)
        return encoder_final, memory_bank


class GlobalAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_in = nn.Linear(dim, dim, bias=False)
        self.linear_out = nn.Linear(dim * 2, dim, bias=False)

    def forward(self, query, memory_bank):
        # query: batch x dim, memory_bank: src_len x batch x dim
        bank = memory_bank.transpose(0, 1)
        align = torch.bmm(bank, self.linear_in(query).unsqueeze(2)).squeeze(2)
        align_vectors = F.softmax(align, dim=-1)
        context = torch.bmm(align_vectors.unsqueeze(1), bank).squeeze(1)
        attn_h = torch.tanh(self.linear_out(torch.cat([context, query], dim=-1)))
        return attn_h, align_vectors


class DecoderState:
    def detach(self):
        raise NotImplementedError


class RNNDecoderState(DecoderState):
    def __init__(self, hidden_size, rnnstate):
        self.hidden = rnnstate
        batch_size = self.hidden[0].size(1)
        self.input_feed = self.hidden[0].new_zeros(batch_size, hidden_size)

    @property
    def _all(self):
        return self.hidden + (self.input_feed,)

    def update_state(self, rnnstate, input_feed):
        self.hidden = rnnstate
        self.input_feed = input_feed

    def detach(self):
        for h in self._all:
            if h is not None:
                h = h.detach()


class InputFeedRNNDecoder(nn.Module):
    def __init__(self, vocab_size, emb_size, hidden_size, num_layers, dropout):
        super().__init__()
        self.hidden_size = hidden_size
        self.embeddings = nn.Embedding(vocab_size, emb_size, padding_idx=0)
        self.layers = nn.ModuleList()
        for i in range(num_layers):
            in_size = emb_size + hidden_size if i == 0 else hidden_size
            self.layers.append(nn.LSTMCell(in_size, hidden_size))
        self.dropout = nn.Dropout(dropout)
        self.attn = GlobalAttention(hidden_size)

    def init_decoder_state(self, encoder_final):
        return RNNDecoderState(self.hidden_size, encoder_final)

    def _stacked_step(self, emb_t, hidden):
        h_0, c_0 = hidden
        h_1, c_1 = [], []
        x = emb_t
        for i, layer in enumerate(self.layers):
            h_i, c_i = layer(x, (h_0[i], c_0[i]))
            x = self.dropout(h_i) if i + 1 != len(self.layers) else h_i
            h_1.append(h_i)
            c_1.append(c_i)
        return x, (torch.stack(h_1), torch.stack(c_1))

    def forward(self, tgt, memory_bank, state):
        emb = self.embeddings(tgt)
        input_feed = state.input_feed
        hidden = state.hidden
        outputs, attns = [], []
        for emb_t in emb.split(1):
            decoder_input = torch.cat([emb_t.squeeze(0), input_feed], dim=1)
            rnn_output, hidden = self._stacked_step(decoder_input, hidden)
            decoder_output, p_attn = self.attn(rnn_output, memory_bank)
            input_feed = self.dropout(decoder_output)
            outputs.append(input_feed)
            attns.append(p_attn)
        state.update_state(hidden, outputs[-1])
        return torch.stack(outputs), torch.stack(attns), state


class NMTModel(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, tgt, dec_state=None):
        enc_final, memory_bank = self.encoder(src)
        enc_state = self.decoder.init_decoder_state(enc_final)
        dec_out, attns, dec_state = self.decoder(
            tgt, memory_bank, enc_state if dec_state is None else dec_state)
        return dec_out, attns, dec_state
