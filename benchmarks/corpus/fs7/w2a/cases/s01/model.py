import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatioTemporalLSTMCell(nn.Module):
    def __init__(self, in_channel, num_hidden, width, filter_size, stride):
        super().__init__()
        self.num_hidden = num_hidden
        padding = filter_size // 2
        self.conv_x = nn.Conv2d(in_channel, num_hidden * 7, filter_size, stride, padding, bias=False)
        self.conv_h = nn.Conv2d(num_hidden, num_hidden * 4, filter_size, stride, padding, bias=False)
        self.conv_m = nn.Conv2d(num_hidden, num_hidden * 3, filter_size, stride, padding, bias=False)
        self.conv_o = nn.Conv2d(num_hidden * 2, num_hidden, filter_size, stride, padding, bias=False)
        self.conv_last = nn.Conv2d(num_hidden * 2, num_hidden, 1, 1, 0, bias=False)

    def forward(self, x_t, h_t, c_t, m_t):
        x_concat = self.conv_x(x_t)
        h_concat = self.conv_h(h_t)
        m_concat = self.conv_m(m_t)
        i_x, f_x, g_x, i_x_p, f_x_p, g_x_p, o_x = torch.split(x_concat, self.num_hidden, dim=1)
        i_h, f_h, g_h, o_h = torch.split(h_concat, self.num_hidden, dim=1)
        i_m, f_m, g_m = torch.split(m_concat, self.num_hidden, dim=1)

        i_t = torch.sigmoid(i_x + i_h)
        f_t = torch.sigmoid(f_x + f_h + 1.0)
        g_t = torch.tanh(g_x + g_h)
        delta_c = i_t * g_t
        c_new = f_t * c_t + delta_c

        i_t_prime = torch.sigmoid(i_x_p + i_m)
        f_t_prime = torch.sigmoid(f_x_p + f_m + 1.0)
        g_t_prime = torch.tanh(g_x_p + g_m)
        delta_m = i_t_prime * g_t_prime
        m_new = f_t_prime * m_t + delta_m

        mem = torch.cat((c_new, m_new), 1)
        o_t = torch.sigmoid(o_x + o_h + self.conv_o(mem))
        h_new = o_t * torch.tanh(self.conv_last(mem))
        return h_new, c_new, m_new, delta_c, delta_m


class RNN(nn.Module):
    def __init__(self, num_layers, num_hidden, configs):
        super().__init__()
        self.configs = configs
        self.frame_channel = configs["patch_size"] ** 2 * configs["img_channel"]
        self.num_layers = num_layers
        self.num_hidden = num_hidden
        width = configs["img_width"] // configs["patch_size"]
        cells = []
        for i in range(num_layers):
            in_channel = self.frame_channel if i == 0 else num_hidden[i - 1]
            cells.append(SpatioTemporalLSTMCell(in_channel, num_hidden[i], width,
                                                configs["filter_size"], configs["stride"]))
        self.cell_list = nn.ModuleList(cells)
        self.conv_last = nn.Conv2d(num_hidden[num_layers - 1], self.frame_channel, 1, 1, 0, bias=False)
        adapter_num_hidden = num_hidden[0]
        self.adapter = nn.Conv2d(adapter_num_hidden, adapter_num_hidden, 1, 1, 0, bias=False)

    def forward(self, frames, mask_true):
        batch, seq, _, height, width = frames.shape
        next_frames = []
        h_t, c_t, delta_c_list, delta_m_list = [], [], [], []
        decouple_loss = []
        for i in range(self.num_layers):
            zeros = torch.zeros(batch, self.num_hidden[i], height, width)
            h_t.append(zeros)
            c_t.append(zeros)
            delta_c_list.append(zeros)
            delta_m_list.append(zeros)
        memory = torch.zeros(batch, self.num_hidden[0], height, width)

        input_length = self.configs["input_length"]
        x_gen = None
        for t in range(seq - 1):
            if t < input_length:
                net = frames[:, t]
            else:
                net = mask_true[:, t - input_length] * frames[:, t] + \
                      (1 - mask_true[:, t - input_length]) * x_gen

            h_t[0], c_t[0], memory, delta_c, delta_m = self.cell_list[0](net, h_t[0], c_t[0], memory)
            delta_c_list[0] = F.normalize(self.adapter(delta_c).view(batch, self.num_hidden[0], -1), dim=2)
            delta_m_list[0] = F.normalize(self.adapter(delta_m).view(batch, self.num_hidden[0], -1), dim=2)

            for i in range(1, self.num_layers):
                h_t[i], c_t[i], memory, delta_c, delta_m = self.cell_list[i](h_t[i - 1], h_t[i], c_t[i], memory)
                delta_c_list[i] = F.normalize(self.adapter(delta_c).view(batch, self.num_hidden[i], -1), dim=2)
                delta_m_list[i] = F.normalize(self.adapter(delta_m).view(batch, self.num_hidden[i], -1), dim=2)

            for i in range(self.num_layers):
                decouple_loss.append(torch.mean(torch.abs(
                    torch.cosine_similarity(delta_c_list[i], delta_m_list[i], dim=2))))

            x_gen = self.conv_last(h_t[self.num_layers - 1])
            next_frames.append(x_gen)

        decouple_loss = torch.mean(torch.tensor(decouple_loss))
        next_frames = torch.stack(next_frames, dim=1)
        loss = F.mse_loss(next_frames, frames[:, 1:]) + self.configs["decouple_beta"] * decouple_loss
        return next_frames, loss
